import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { usePageTitle, usePageTitleOverride } from './page-title';

function Lender({ title }: { title: string | undefined }) {
  usePageTitle(title);
  return null;
}

function Reader() {
  return <span data-testid="title">{usePageTitleOverride() ?? 'route title'}</span>;
}

describe('usePageTitle', () => {
  it('lends a title while mounted and gives it back on unmount', () => {
    const view = render(
      <>
        <Reader />
        <Lender title="数据文档" />
      </>,
    );
    expect(screen.getByTestId('title').textContent).toBe('数据文档');
    view.rerender(
      <>
        <Reader />
        <Lender title="Data documents" />
      </>,
    );
    expect(screen.getByTestId('title').textContent).toBe('Data documents');
    view.rerender(<Reader />);
    expect(screen.getByTestId('title').textContent).toBe('route title');
  });

  it('lends nothing without a title', () => {
    render(
      <>
        <Reader />
        <Lender title={undefined} />
      </>,
    );
    expect(screen.getByTestId('title').textContent).toBe('route title');
  });
});
