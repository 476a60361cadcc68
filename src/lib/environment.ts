/**
 * Local development relaxes the outbound URL policy (webhooks to localhost, product pages on the developer's
 * machine). It is on only when the dev setup says so explicitly (`ENVIRONMENT=development`, set by
 * `npm run dev`, the bench and the tests): an unset, misspelt or any other value is production. Fail closed.
 */
export const isDevelopment = (env: { ENVIRONMENT?: string }): boolean => env.ENVIRONMENT === "development";
