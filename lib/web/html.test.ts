import { ether, html, raw } from "./html";

test("interpolated text is escaped, Html and lists are kept, nothing renders as empty", () => {
  const evil = `"><script>alert(1)</script>`;
  expect(html`<a title="${evil}">${evil}</a>`.text).toBe(
    '<a title="&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;">&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;</a>',
  );
  expect(html`<p>${raw("<b>x</b>")}${[1, html`<i>y</i>`]}${null}${undefined}${false}</p>`.text).toBe("<p><b>x</b>1<i>y</i></p>");
});

test("an amount is ether, exact, with the wei in its title", () => {
  expect(ether("0x1bc16d674ec80000").text).toBe('<span class="amount" title="2000000000000000000 wei">2 ETH</span>');
  expect(ether(21_000n).text).toBe('<span class="amount" title="21000 wei">0.000000000000021 ETH</span>');
});
