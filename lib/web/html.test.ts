import { html, raw } from "./html";

test("interpolated text is escaped, Html and lists are kept, nothing renders as empty", () => {
  const evil = `"><script>alert(1)</script>`;
  expect(html`<a title="${evil}">${evil}</a>`.text).toBe(
    "<a title=\"&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;\">&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;</a>",
  );
  expect(html`<p>${raw("<b>x</b>")}${[1, html`<i>y</i>`]}${null}${undefined}${false}</p>`.text).toBe("<p><b>x</b>1<i>y</i></p>");
});
