// The package ships no type declarations; this is the part the test IdP uses (samlify's schema validator).
declare module '@authenio/samlify-xmllint-wasm' {
  export function validate(xml: string): Promise<string>;
}
