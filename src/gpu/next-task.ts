/**
 * The next macrotask: work after it lets the event loop run first (a submission's mapping, a
 * caller's check). A MessageChannel's message, not setTimeout, which pages clamp to 1-4 ms.
 * @module
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
