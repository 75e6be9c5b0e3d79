/**
 * The status area's height (ReplicaStatusArea measures it, 0 in a short window where it scrolls away), for the
 * toaster, which floats above it and lives outside the shell. Kept here rather than in a style property of the whole
 * document: a property set on the root restyles every element, and the first screen's was set as the app mounted
 * (issue 25, branch overview16).
 */
class StatusAreaHeight {
  px = $state(0);
}

export const statusAreaHeight = new StatusAreaHeight();
