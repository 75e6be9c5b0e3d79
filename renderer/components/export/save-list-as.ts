import type { SheetFormat } from '../../../shared/ipc/export-sheet.js';
import type { CollectSheetResult } from '../../stores/capacity-export.js';
import { api } from '../../lib/api.js';
import { localDateStamp } from '../../lib/dates.js';
import { announceExport, exportFailed } from './export-outcome.js';
import { downloadBase64 } from './download.js';

/**
 * Writes a list as shown to a CSV or Excel file named with today's date (so the next export does
 * not collide), and says where it went. The export buttons and the command palette both use it.
 */
export async function saveListAs(format: SheetFormat, suggestedName: string, collect: () => Promise<CollectSheetResult>): Promise<void> {
  const collected = await collect();
  if (!collected.ok) return exportFailed(collected.error);
  const result = await api.files.saveSheet({ suggestedName: `${suggestedName} ${localDateStamp()}`, format, ...collected.data });
  if (!result.ok) return exportFailed(result.error);
  if (result.value.outcome === 'download') downloadBase64(result.value.fileName, result.value.base64, result.value.mimeType);
  announceExport(result.value);
}
