/**
 * The home page's antd parts that only show once the server has answered (state tags, the
 * pinned mark, the empty list): fetched after the first paint, not with the page
 * (docs/decisions.md, "Home page JavaScript budget").
 */
import { Empty, Tag } from 'antd';

export function StateTag({ className, color, text }: { className?: string; color: string; text: string }) {
  return (
    <Tag className={className} color={color}>
      {text}
    </Tag>
  );
}

export function NewsEmpty({ description }: { description: string }) {
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={description} />;
}
