/** What the About panel shows; Electron's AboutPanelOptionsOptions has the same names. */
export interface AboutPanel {
  readonly applicationName: string;
  readonly applicationVersion: string;
  /** macOS shows it in brackets after the version: the runtime it was built on. */
  readonly version: string;
  readonly copyright: string;
  readonly credits: string;
  readonly iconPath?: string;
}

export interface AboutFacts {
  readonly name: string;
  readonly version: string;
  readonly electron: string;
  readonly chrome: string;
  readonly node: string;
  readonly year: number;
  /** Linux and Windows draw the icon from a file; macOS uses the bundle's. */
  readonly iconPath?: string;
}

export function aboutPanel(facts: AboutFacts): AboutPanel {
  return {
    applicationName: facts.name,
    applicationVersion: facts.version,
    version: `Electron ${facts.electron}`,
    copyright: `Copyright © ${facts.year} Capacity Desk`,
    credits: `Electron ${facts.electron} · Chromium ${facts.chrome} · Node.js ${facts.node}`,
    ...(facts.iconPath ? { iconPath: facts.iconPath } : {}),
  };
}
