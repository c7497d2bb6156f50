/** `./x.ts?sandbox-source`: the module bundled into one classic script, as text (scripts/vite-sandbox-source.ts). */
declare module '*?sandbox-source' {
  const source: string;
  export default source;
}
