/**
 * Keeps V8's young generation at its first size while the server starts.
 *
 * Nearly all a start allocates (modules, compiled route schemas, caches) lives as long as the
 * process. V8 reads that many survivors as a sign that the young generation is too small and doubles
 * it, up to 2 x 16 MiB on 64-bit Node; an idle server then runs no further collection, so the grown
 * space is never shrunk and stays resident (about a fifth of the idle footprint, issue #19). With
 * growth held during the start, the long-lived objects are promoted a little sooner (where they end up
 * anyway); once started the usual growth applies, so a loaded server sizes its young generation as
 * before.
 *
 * `semi-space-growth-factor` is read by V8 each time it grows the space, so setting it at run time
 * takes effect; an operator who passed their own young-generation flags keeps them untouched.
 */
import { setFlagsFromString } from 'node:v8';

const OWN_FLAGS = /--(max|min)[-_]semi[-_]space[-_]size|--semi[-_]space[-_]growth[-_]factor/;

/** Hold the young generation's size; call the answer once the server has started. */
export function holdYoungGeneration(
  argv: readonly string[] = [...process.execArgv, process.env.NODE_OPTIONS ?? ''],
): () => void {
  if (argv.some((a) => OWN_FLAGS.test(a))) return () => {};
  setFlagsFromString('--semi-space-growth-factor=1');
  let released = false;
  return () => {
    if (released) return;
    released = true;
    setFlagsFromString('--semi-space-growth-factor=2');
  };
}
