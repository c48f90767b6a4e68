/** The entry of every bench: a failure prints and exits 1. */
export function runMain(main: () => Promise<void> | void): void {
  Promise.resolve()
    .then(main)
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
