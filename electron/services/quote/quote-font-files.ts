/** The quote's fonts by package path: DejaVu Sans (dejavu-fonts-ttf). One list for the build's copy and the reader. */
export const QUOTE_FONT_FILES = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
} as const;
