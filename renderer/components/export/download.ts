/**
 * Offers text as a file download from the page itself: the browser host's way
 * of saving an export (Electron saves through the OS dialog instead).
 */
export function downloadText(fileName: string, content: BlobPart, type = 'text/csv;charset=utf-8'): void {
  downloadBlob(fileName, new Blob([content], { type }));
}

function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
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

/** Offers bytes the main process sent as base64 (an XLSX file) as a download. */
export function downloadBase64(fileName: string, base64: string, type: string): void {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  downloadBlob(fileName, new Blob([bytes], { type }));
}
