import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fontForPdf } from './font-for-pdf.js';

/**
 * The font a quote draws what DejaVu Sans has no glyph for (Chinese, Japanese,
 * Korean names) with: one the OS already has. A CJK font is 5-20 MB a weight,
 * too much to ship for a few names, and every desktop that shows such names has
 * one. The first file found is used; its regular weight serves bold text too.
 */
export function fallbackFontPaths(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): readonly string[] {
  if (platform === 'win32') {
    const fonts = join(env.WINDIR ?? env.SystemRoot ?? 'C:\\Windows', 'Fonts');
    // Microsoft YaHei (Chinese), Yu Gothic and Meiryo (Japanese), Malgun Gothic (Korean), SimSun.
    return ['msyh.ttc', 'YuGothR.ttc', 'meiryo.ttc', 'malgun.ttf', 'simsun.ttc'].map((name) => join(fonts, name));
  }
  if (platform === 'darwin') {
    return [
      '/System/Library/Fonts/PingFang.ttc',
      '/System/Library/Fonts/Hiragino Sans GB.ttc',
      '/System/Library/Fonts/ヒラギノ角ゴシック W3.ttc',
      '/System/Library/Fonts/Supplemental/Arial Unicode.ttf',
      '/Library/Fonts/Arial Unicode.ttf',
      '/System/Library/Fonts/AppleSDGothicNeo.ttc',
    ];
  }
  // Debian/Ubuntu, Fedora and Arch keep Noto Sans CJK and WenQuanYi in these places.
  return [
    '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
    '/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc',
    '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc',
    '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
    '/usr/share/fonts/wqy-microhei/wqy-microhei.ttc',
    '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc',
    '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf',
  ];
}

let found: Promise<Uint8Array | null> | null = null;

/**
 * The first of the OS's fallback fonts that can be read and embedded (font-for-pdf.ts); null when
 * there is none (the quote then writes those characters as "?" and says so).
 * Looked for once per run: a quote is made while the person waits.
 */
export function systemFallbackFont(): Promise<Uint8Array | null> {
  found ??= firstReadableFont(fallbackFontPaths());
  return found;
}

export async function firstReadableFont(paths: readonly string[]): Promise<Uint8Array | null> {
  for (const path of paths) {
    try {
      const font = fontForPdf(await readFile(path));
      if (font) return font;
    } catch {
      // Missing, unreadable or damaged: the next one.
    }
  }
  return null;
}
