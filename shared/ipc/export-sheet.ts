import { z } from 'zod';
import { ExportCell } from './export.js';

/**
 * How a column of an export is typed, so a spreadsheet reads it as what it is:
 * `datetime` cells are this computer's wall clock ("2026-11-30T14:05", no
 * zone: the file shows what the screen showed), `percent` cells are fractions
 * (0.28 is 28 %), `amount` cells are plain numbers with two decimals.
 */
export const SHEET_KINDS = ['text', 'integer', 'amount', 'percent', 'datetime'] as const;
export const SheetKind = z.enum(SHEET_KINDS);
export type SheetKind = z.infer<typeof SheetKind>;

export const SheetColumn = z.object({ label: z.string().min(1).max(200), kind: SheetKind });
export type SheetColumn = z.infer<typeof SheetColumn>;

export const SHEET_FORMATS = ['csv', 'xlsx'] as const;
export const SheetFormat = z.enum(SHEET_FORMATS);
export type SheetFormat = z.infer<typeof SheetFormat>;

/** files.saveSheet: a list as shown (its visible columns, typed), written as CSV or XLSX by the main process. */
export const SaveSheetInput = z.object({
  /** Offered as the file name; unsafe characters are replaced and the extension is added. */
  suggestedName: z.string().trim().min(1).max(120),
  format: SheetFormat,
  columns: z.array(SheetColumn).min(1).max(50),
  rows: z.array(z.array(ExportCell).max(50)).max(20_000),
});
export type SaveSheetInput = z.input<typeof SaveSheetInput>;

/**
 * As files.saveCsv's result; a download carries its bytes as base64 (an XLSX
 * file is binary).
 */
export const SaveSheetResult = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('saved'), fileName: z.string(), path: z.string(), rows: z.number().int().min(0) }),
  z.object({ outcome: z.literal('canceled') }),
  z.object({ outcome: z.literal('download'), fileName: z.string(), base64: z.string(), mimeType: z.string(), rows: z.number().int().min(0) }),
]);
export type SaveSheetResult = z.infer<typeof SaveSheetResult>;
