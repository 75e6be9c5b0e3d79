/**
 * Offers text as a file download from the page itself: the browser host's way
 * of saving an export (Electron saves through the OS dialog instead).
 */
export function downloadText(fileName: string, content: BlobPart, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser reads the blob after click() returns; let it finish before freeing it.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
