import { Spin } from 'antd';

/** Shown while a lazily loaded screen arrives. */
export function PageLoading() {
  return (
    <div className="center-pad">
      <Spin />
    </div>
  );
}
