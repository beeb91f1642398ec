"""SeeAct's interactive-element list, extracted from the live DOM in one page evaluation.

A re-implementation of what SeeAct / SeePlanAct's ``get_interactive_elements_with_playwright``
and ``get_element_description`` (``demo_utils/browser_helper.py``) compute with one Playwright
round trip per element: every element matching the interactive selectors below, skipping hidden
and disabled ones and, for the generic selectors, elements whose tag is one of the named tags;
its description (a select's chosen and listed options; an input's ``input value="..."``; its text
content, or its inner text when the text is over 80 characters; else ``parent_node: <first line of
the parent's text>`` plus the salient attributes of the element or of its first child); its tag
head (``tag role="..." type="..."``), its box and centre in viewport coordinates. Elements are
de-duplicated by centre point, first selector wins, as upstream does.

Each element keeps ``(selector index, nth)`` so ``locator(page, element)`` is the same Playwright
locator upstream holds (``page.locator(selector).nth(n)``). ``querySelectorAll`` does not enter
shadow roots where Playwright's CSS engine does, so on pages with shadow DOM an element inside one
is not listed (and ``nth`` counts only light-DOM matches).
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.async_api import Locator, Page

SELECTORS: tuple[str, ...] = (
    "a",
    "button",
    "input",
    "select",
    "textarea",
    "adc-tab",
    '[role="button"]',
    '[role="radio"]',
    '[role="option"]',
    '[role="combobox"]',
    '[role="textbox"]',
    '[role="listbox"]',
    '[role="menu"]',
    '[type="button"]',
    '[type="radio"]',
    '[type="combobox"]',
    '[type="textbox"]',
    '[type="listbox"]',
    '[type="menu"]',
    '[tabindex]:not([tabindex="-1"])',
    '[contenteditable]:not([contenteditable="false"])',
    "[onclick]",
    "[onfocus]",
    "[onkeydown]",
    "[onkeypress]",
    "[onkeyup]",
    "[checkbox]",
    '[aria-disabled="false"],[data-link]',
)

_EXTRACT = r"""(selectors) => {
  const TAGS = ["a", "button", "input", "select", "textarea", "adc-tab"];
  const SALIENT = ["alt", "aria-describedby", "aria-label", "aria-role", "input-checked", "label", "name",
                   "option_selected", "placeholder", "readonly", "text-value", "title", "value"];
  const NO_VALUE = ["submit", "reset", "checkbox", "radio", "button", "file"];
  const eol = t => t.replace(/\n/g, " ").replace(/\s{2,}/g, " ");
  const firstLine = s => { const line = s.split("\n")[0]; const tokens = line.split(/\s+/).filter(Boolean);
                           return tokens.length > 8 ? tokens.slice(0, 8).join(" ") + "..." : line; };
  const inner = el => (typeof el.innerText === "string" ? el.innerText : el.textContent) || "";
  const hidden = el => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
                         return !(r.width > 0 && r.height > 0) || s.visibility !== "visible"; };
  const disabled = el => (["BUTTON", "INPUT", "SELECT", "TEXTAREA", "OPTION", "OPTGROUP"].includes(el.tagName) && el.disabled)
                         || !!el.closest('[aria-disabled="true"]');
  const attrs = (el, acc) => { for (const a of SALIENT) { const v = el.getAttribute(a); if (v) acc += a + '="' + v.trim() + '" '; } return acc; };
  function describe(el, tag, role, type) {
    let parent = "parent_node: ";
    if (el.parentElement) { const t = inner(el.parentElement).trim(); if (t) parent += t; }
    parent = eol(firstLine(parent)).trim();
    parent = parent === "parent_node:" ? "" : parent + " ";
    if (tag === "select" && el.options && el.selectedIndex >= 0) {
      const chosen = el.options[el.selectedIndex].textContent;
      if (chosen) {
        let all = Array.from(el.options).map(o => o.text).join(" | ");
        if (!all) all = el.textContent || inner(el);
        return parent + "Selected Options: " + eol(chosen.trim()) + " - Options: " + all;
      }
    }
    let value = "";
    if ((tag === "input" || tag === "textarea") && !NO_VALUE.includes(role) && !NO_VALUE.includes(type) && el.value) {
      value = 'input value="' + el.value + '" ';
    }
    const text = (el.textContent || "").trim();
    if (text) {
      const flat = eol(text);
      if (flat.length > 80) { const t = inner(el).trim(); if (t) return value + eol(t); }
      else return value + flat;
    }
    let t1 = attrs(el, "");
    let joined = (parent + t1).trim();
    if (joined) return value + eol(joined);
    if (el.firstElementChild) {
      t1 = attrs(el.firstElementChild, t1);
      joined = (parent + t1).trim();
      if (joined) return value + eol(joined);
    }
    return null;
  }
  const out = [];
  const seen = new Set();
  selectors.forEach((selector, si) => {
    const tagName = selector.replace(':not([tabindex="-1"])', "").replace(':not([contenteditable="false"])', "");
    document.querySelectorAll(selector).forEach((el, nth) => {
      if (hidden(el) || disabled(el)) return;
      let head, real;
      if (TAGS.includes(tagName)) { head = real = tagName; }
      else { real = el.tagName.toLowerCase(); if (TAGS.includes(real)) return; head = real; }
      const role = el.getAttribute("role"), type = el.getAttribute("type");
      const description = describe(el, real, role, type);
      if (!description) return;
      const r = el.getBoundingClientRect();
      if (role) head += ' role="' + role + '"';
      if (type) head += ' type="' + type + '"';
      const box = [r.x, r.y, r.x + r.width, r.y + r.height];
      const center = [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2];
      const key = center.join(",");
      if (seen.has(key)) return;
      seen.add(key);
      out.push({center, description, head, box, tag: real, selector: si, nth});
    });
  });
  return out;
}"""

#: the page height upstream uses to size its screenshot clip
_PAGE_HEIGHT = (
    "() => Math.max(document.documentElement.scrollHeight, document.body ? "
    "document.body.scrollHeight : 0, document.documentElement.clientHeight)"
)


@dataclass(frozen=True)
class PageElement:
    """One interactive element: upstream's ``[center_point, description, tag_head, box_model, selector, real_tag_name]``."""

    center: tuple[float, float]
    description: str
    tag_head: str
    box: tuple[float, float, float, float]
    tag: str
    selector: int
    nth: int


async def interactive_elements(page: Page) -> list[PageElement]:
    rows = await page.evaluate(_EXTRACT, list(SELECTORS))
    return [
        PageElement(
            tuple(r["center"]),
            r["description"],
            r["head"],
            tuple(r["box"]),
            r["tag"],
            r["selector"],
            r["nth"],
        )
        for r in rows
    ]


def locator(page: Page, element: PageElement) -> Locator:
    return page.locator(SELECTORS[element.selector]).nth(element.nth)


async def page_height(page: Page) -> int:
    return int(await page.evaluate(_PAGE_HEIGHT))
