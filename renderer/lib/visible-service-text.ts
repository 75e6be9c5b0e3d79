import { hasInvisibleControls, visibleText } from '../../shared/format/visible-text.js';

/**
 * Service text reaches the page through many views (lists, details, dialog
 * titles, the palette, toasts, DR views, error messages with the service's own
 * words). Rather than trusting each of them to remember, every piece of text
 * and every text-bearing attribute that enters the document passes through
 * `visibleText` here, before the browser paints it (mutation observers run
 * before rendering). The data itself is untouched: exports, copies and search
 * use the raw values.
 */
const TEXT_ATTRIBUTES = ['title', 'aria-label', 'aria-description', 'aria-valuetext', 'alt', 'placeholder', 'label'];

function fixText(node: Text): void {
  const data = node.data;
  if (hasInvisibleControls(data)) node.data = visibleText(data);
}

function fixAttributes(element: Element): void {
  for (const name of TEXT_ATTRIBUTES) {
    const value = element.getAttribute(name);
    if (value !== null && hasInvisibleControls(value)) element.setAttribute(name, visibleText(value));
  }
}

function fixTree(root: Node): void {
  if (root.nodeType === Node.TEXT_NODE) return fixText(root as Text);
  if (root.nodeType !== Node.ELEMENT_NODE && root.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return;
  if (root.nodeType === Node.ELEMENT_NODE) fixAttributes(root as Element);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) fixText(node as Text);
    else fixAttributes(node as Element);
  }
}

/** Keeps every text of the document free of invisible controls from now on; returns a function that stops it. */
export function showServiceTextSafely(root: Node = document.documentElement): () => void {
  fixTree(root);
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'characterData') fixText(record.target as Text);
      else if (record.type === 'attributes') fixAttributes(record.target as Element);
      else for (const added of record.addedNodes) fixTree(added);
    }
  });
  observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: TEXT_ATTRIBUTES });
  return () => observer.disconnect();
}
