/**
 * Pictures for the designer's image sources: upload one through the rich-text helper
 * (`ueditor?action=uploadimage`, compressed on the client first, EXIF orientation applied) or pick one of
 * the project's uploaded images (`listimage`). The caller decides what a picked picture becomes: an
 * `<img>` in rich text, an image widget's source, a carousel's next slide.
 */
import { PictureOutlined, UploadOutlined } from '@ant-design/icons';
import { Upload as AntUpload, App, Button, Empty, Popover, Space, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listEditorImages, uploadEditorImage } from '../../api/upload.ts';
import { compressImage } from '../../fields/compress.ts';
import { UPLOAD_MAX_BYTES } from '../../fields/Upload.tsx';

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** Rich text's `<p><img src alt></p>` for a picked picture. */
export const imageHtml = (url: string, alt: string) => `<p><img src="${attr(url)}" alt="${attr(alt)}"></p>`;

export function ImagePick(props: {
  project: string;
  /** A picture was uploaded (alt: its file name without extension) or picked from the uploaded ones. */
  onPick(url: string, alt: string): void;
  /** The upload button's words (default "Insert image"). */
  label?: string;
  disabled?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [percent, setPercent] = useState<number | null>(null);
  const [images, setImages] = useState<{ url: string }[] | null>(null);
  const [galleryOpen, setGalleryOpen] = useState(false);
  const insert = props.onPick;
  const off = !props.project || props.disabled === true;

  async function upload(file: File) {
    if (!IMAGE_TYPES.includes(file.type)) {
      message.error(t('upload.notImage'));
      return;
    }
    setPercent(0);
    try {
      const small = await compressImage(file);
      if (small.size > UPLOAD_MAX_BYTES) {
        message.error(t('upload.tooLarge', { max: UPLOAD_MAX_BYTES / 1024 / 1024 }));
        return;
      }
      const saved = await uploadEditorImage(props.project, small, file.name, {
        onProgress: (x) => setPercent(Math.round(x * 100)),
      });
      insert(saved.url, saved.title.replace(/\.[a-z0-9]+$/i, ''));
    } catch {
      /* the upload call showed its coded error */
    } finally {
      setPercent(null);
    }
  }

  const gallery =
    images === null ? (
      <Spin size="small" />
    ) : images.length === 0 ? (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('upload.noImages')} />
    ) : (
      <div
        className="panel-richtext-gallery"
        data-testid={props.testId ? `${props.testId}-gallery` : undefined}
      >
        {images.map((img) => (
          <button
            key={img.url}
            type="button"
            className="panel-richtext-thumb"
            onClick={() => {
              setGalleryOpen(false);
              insert(img.url, '');
            }}
          >
            <img src={img.url} alt="" />
          </button>
        ))}
      </div>
    );

  return (
    <Space size={4} className="panel-richtext-images">
      <AntUpload
        accept={IMAGE_TYPES.join(',')}
        showUploadList={false}
        disabled={off || percent !== null}
        customRequest={({ file }) => void upload(file as File)}
      >
        <Button size="small" icon={<UploadOutlined />} loading={percent !== null} data-testid={props.testId}>
          {percent !== null ? t('upload.uploading', { percent }) : (props.label ?? t('upload.insertImage'))}
        </Button>
      </AntUpload>
      <Popover
        trigger="click"
        content={gallery}
        title={t('upload.uploadedImages')}
        open={galleryOpen}
        onOpenChange={(open) => {
          setGalleryOpen(open);
          if (!open) return;
          setImages(null);
          listEditorImages(props.project, 0, 40).then(
            (r) => setImages(r.list),
            () => setImages([]),
          );
        }}
      >
        <Button size="small" icon={<PictureOutlined />} disabled={off}>
          {t('upload.uploadedImages')}
        </Button>
      </Popover>
    </Space>
  );
}
