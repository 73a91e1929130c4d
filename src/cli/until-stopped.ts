// How the long-running commands (`pvectl sim`, `pvectl netbox sim`) wait to be stopped.

/**
 * Resolves at the first SIGINT or SIGTERM and stops listening then. Call it before printing
 * the address: whoever reads the address may signal at once.
 */
export function untilStopped(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
