/**
 * Whether the command palette is open, and its shortcut. Kept apart from the
 * palette itself so that the shell can answer Ctrl/Cmd+K at once while the
 * palette's code (its search, the export actions) loads in a chunk of its own.
 */
class PaletteOpening {
  isOpen = $state(false);

  open(): void {
    this.isOpen = true;
  }

  close(): void {
    this.isOpen = false;
  }

  /** Ctrl/Cmd+K opens it, or closes it when open. */
  onWindowKeydown(event: KeyboardEvent): void {
    if (!((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k')) return;
    event.preventDefault();
    if (this.isOpen) this.close();
    // Not over another dialog (a confirmation, the password prompt): that one has the user's attention.
    else if (!document.querySelector('dialog[open]')) this.open();
  }
}

export const paletteOpening = new PaletteOpening();
