// The order a sync sends the queue in (issue 27, decision 061): patients registered offline first (their entries
// name them), then the entries, each in the order they were made; the server takes SYNC_BATCH_MAX a request.
import type { QueuedWrite } from './offline-engine';

export function orderForSync(writes: QueuedWrite[]): QueuedWrite[] {
  const byTime = (a: QueuedWrite, b: QueuedWrite): number => a.queuedAt.localeCompare(b.queuedAt) || a.clientId.localeCompare(b.clientId);
  return [...writes.filter((w) => w.write.type === 'patient').sort(byTime), ...writes.filter((w) => w.write.type === 'entry').sort(byTime)];
}
