import { z } from 'zod';

/** files.saveCsv: a list as shown, written by the main process (or downloaded by the page in the browser host). */

/** Rows written. */
const RowCount = z.number().int().min(0);

/** A cell of an exported list: the CSV writer turns it into text. */
export const ExportCell = z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]);

/** files.saveCsv: a list as the user sees it, to be written as CSV by the main process. */
export const SaveCsvInput = z.object({
  /** Offered as the file name; unsafe characters are replaced and .csv is added. */
  suggestedName: z.string().trim().min(1).max(120),
  header: z.array(z.string().max(200)).min(1).max(50),
  rows: z.array(z.array(ExportCell).max(50)).max(20_000),
});
export type SaveCsvInput = z.input<typeof SaveCsvInput>;

/**
 * saved: written where the person chose (Electron's save dialog);
 * canceled: they closed the dialog; download: this host has no save dialog, so
 * the renderer offers the content as a browser download.
 */
export const SaveCsvResult = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('saved'), fileName: z.string(), path: z.string(), rows: RowCount }),
  z.object({ outcome: z.literal('canceled') }),
  z.object({ outcome: z.literal('download'), fileName: z.string(), content: z.string(), rows: RowCount }),
]);
export type SaveCsvResult = z.infer<typeof SaveCsvResult>;
