import {
  AppstoreOutlined,
  CustomerServiceOutlined,
  FileTextOutlined,
  HomeOutlined,
  ShoppingCartOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';
import { bool, list, obj, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useDispatch, useRuntime } from '../kit/widget-context.ts';

const ICONS: Record<string, ComponentType> = {
  home: HomeOutlined,
  category: AppstoreOutlined,
  cart: ShoppingCartOutlined,
  order: FileTextOutlined,
  service: CustomerServiceOutlined,
  user: UserOutlined,
};

/** Bottom navigation; on a published page it stays at the bottom of the screen while the page scrolls. */
export function TabBarWidget({ id, props }: WidgetRenderProps) {
  const rt = useRuntime();
  const dispatch = useDispatch(id);
  const color = str(props.color, '#e4393c');
  const active = str(props.active);
  const fixed = bool(props.fixed, true) && rt.mode !== 'design';
  const items = list(props.items).map(obj);
  return (
    <nav
      className="lc-tab-bar"
      style={{
        display: 'flex',
        background: '#ffffff',
        borderTop: '1px solid #eeeeee',
        height: 56,
        width: '100%',
        ...(fixed
          ? {
              position: 'fixed',
              left: '50%',
              transform: 'translateX(-50%)',
              bottom: 0,
              maxWidth: 480,
              zIndex: 100,
            }
          : {}),
      }}
    >
      {items.map((item, i) => {
        const value = str(item.value);
        const Icon = ICONS[str(item.icon)] ?? HomeOutlined;
        const on = value !== '' && value === active;
        return (
          <button
            key={value || i}
            type="button"
            aria-current={on ? 'page' : undefined}
            onClick={() => dispatch('onSelect', { label: str(item.label), value, icon: str(item.icon) })}
            style={{
              flex: 1,
              border: 0,
              background: 'transparent',
              cursor: 'pointer',
              color: on ? color : '#666666',
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              justifyContent: 'center',
              gap: 2,
              fontSize: 11,
            }}
          >
            <span style={{ fontSize: 20, lineHeight: 1 }}>
              <Icon />
            </span>
            {str(item.label)}
          </button>
        );
      })}
    </nav>
  );
}
