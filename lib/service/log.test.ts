/** The log's scrubber: every shape of secret the service knows is replaced, the rest of the text kept. */
import { REDACTED, scrubSecrets } from "./log";

test.each([
  ["an Admin RPC URL", "POST /rpc/admin/Tlgk87HktJ-YEhTgUPRS?x=1", `POST /rpc/admin/${REDACTED}?x=1`],
  ["a sign-in token", "GET /dashboard/login?token=Ss7rSsj6fre1&next=/", `GET /dashboard/login?token=${REDACTED}&next=/`],
  ["an access key", "key cf_YRpSyvu8KUDa_1B7gK7YvGQD1jeW6EOQ rejected", `key ${REDACTED} rejected`],
  ["a JWT", "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl expired", `token ${REDACTED} expired`],
  ["a Bearer credential", "Authorization: Bearer abc.def-ghi", `Authorization: Bearer ${REDACTED}`],
  ["a Basic credential", "authorization: basic Y2ZfYWJjOg==", `authorization: basic ${REDACTED}`],
])("%s", (_name, text, scrubbed) => {
  expect(scrubSecrets(text)).toBe(scrubbed);
});

test("the given secrets (upstream RPC URLs with their API keys) wherever they appear", () => {
  const upstream = "https://eth.example/v2/s3cr3t-api-key";
  expect(scrubSecrets(`fetch ${upstream}/ failed`, [upstream])).toBe(`fetch ${REDACTED}/ failed`);
});
