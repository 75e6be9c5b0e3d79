import { describe, expect, it } from 'vitest';
import { safeFileName, saveCsv, type SaveFileHost, type SaveFileRequest } from '../../../electron/services/files/save-file.js';

const input = { suggestedName: 'DR policies CUST-1001', header: ['id', 'name'], rows: [['sc_1', '=1+1'], ['sc_2', null]] };
const expectedCsv = '\uFEFFid,name\r\nsc_1,\'=1+1\r\nsc_2,\r\n';

describe('safeFileName', () => {
  it.each([
    ['DR policies CUST-1001', 'DR policies CUST-1001.csv'],
    ['report.CSV', 'report.csv'],
    ['../../etc/passwd', 'etc-passwd.csv'],
    ['a:b*c?d"e<f>g|h\\i/j', 'a-b-c-d-e-f-g-h-i-j.csv'],
    ['bell\u0007name', 'bell-name.csv'],
    ['trailing dots...', 'trailing dots.csv'],
    ['CON', 'CON-export.csv'],
    ['...', 'export.csv'],
  ])('%j becomes %j', (suggested, expected) => {
    expect(safeFileName(suggested, 'csv')).toBe(expected);
  });
});

describe('saveCsv', () => {
  it('hands the content back for a download when the host has no save dialog', async () => {
    expect(await saveCsv(input, undefined)).toEqual({ outcome: 'download', fileName: 'DR policies CUST-1001.csv', content: expectedCsv, rows: 2 });
  });

  it('writes through the host and reports where; a closed dialog is "canceled"', async () => {
    const seen: SaveFileRequest[] = [];
    const host = (answer: { path: string } | null): SaveFileHost => ({
      save: async (request) => {
        seen.push(request);
        return answer;
      },
    });
    expect(await saveCsv(input, host({ path: '/home/a/Downloads/picked.csv' }))).toEqual({
      outcome: 'saved',
      fileName: 'picked.csv',
      path: '/home/a/Downloads/picked.csv',
      rows: 2,
    });
    expect(seen[0]).toMatchObject({ suggestedName: 'DR policies CUST-1001.csv', content: expectedCsv });
    expect(await saveCsv(input, host(null))).toEqual({ outcome: 'canceled' });
  });
});
