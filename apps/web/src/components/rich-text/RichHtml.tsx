import './rich-text.css';

export interface RichHtmlProps {
  /** Allow-listed HTML as the server answers it. */
  html: string;
  className?: string;
  testId?: string;
}

/**
 * Rich text written in the admin console (news bodies, the guide, home blocks). The server
 * sanitises it with an allow-list when it is stored and again when it is served, which is
 * the only reason it may be injected as HTML here; never pass anything else to this component.
 */
export function RichHtml({ html, className, testId }: RichHtmlProps) {
  return (
    <div
      className={['site-rich', className].filter(Boolean).join(' ')}
      data-testid={testId}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
