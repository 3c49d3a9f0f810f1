// Stylesheets are bundled as text (esbuild's text loader) and put into each shadow root.
declare module '*.css' {
  const css: string;
  export default css;
}
