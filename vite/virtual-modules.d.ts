/** Types of the virtual modules of vite/*-plugin.ts. */
declare module "virtual:islands-entry" {
  /** URL of the content pages' islands script (vite/islands-plugin.ts), e.g. "/assets/islands-Ab12.js". */
  const url: string;
  export default url;
}
