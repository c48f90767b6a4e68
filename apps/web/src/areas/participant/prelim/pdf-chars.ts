/**
 * Counts an uploaded application PDF's characters in the browser (the rule of docs/rules/prelim.md, "The application's character count"; the
 * shared countPages), so the participant sees the figure right after uploading, before the
 * server counts it on save. pdf.js is loaded on demand: most visits never need it.
 */
import { useQuery } from '@tanstack/react-query';
import { countPages, type PdfTextItem } from '@contest/shared';
import { fetchPreviewFile } from '../../../components/preview';

export async function countPdfChars(uniqueNo: string, signal: AbortSignal): Promise<number> {
  const { blob } = await fetchPreviewFile({ id: uniqueNo, name: `${uniqueNo}.pdf` }, signal);
  const { openPdf } = await import('../../../components/preview/pdfjs');
  const task = openPdf(new Uint8Array(await blob.arrayBuffer()));
  const doc = await task.promise;
  try {
    const pages: PdfTextItem[][] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      pages.push((await page.getTextContent()).items as PdfTextItem[]);
      if (signal.aborted) throw signal.reason;
    }
    return countPages(pages);
  } finally {
    void doc.destroy();
  }
}

/** The browser's count for a stored PDF; idle when `uniqueNo` is null. */
export function usePdfChars(uniqueNo: string | null) {
  return useQuery({
    queryKey: ['pdf-chars', uniqueNo],
    queryFn: ({ signal }) => countPdfChars(uniqueNo!, signal),
    enabled: uniqueNo !== null,
    staleTime: Infinity,
    retry: false,
  });
}
