import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { WhatsAppText, stripWhatsAppMarkup } from "./whatsapp-markup";

const html = (text: string) => render(<WhatsAppText text={text} />).container.innerHTML;

describe("WhatsApp markup", () => {
  it("renders bold, italic, strike and monospace as elements", () => {
    const { container } = render(<WhatsAppText text={"*Olá* _mundo_ ~velho~ ```a*b*c```"} />);
    expect(container.querySelector("strong")).toHaveTextContent("Olá");
    expect(container.querySelector("em")).toHaveTextContent("mundo");
    expect(container.querySelector("s")).toHaveTextContent("velho");
    expect(container.querySelector("code")).toHaveTextContent("a*b*c");
    expect(container.querySelector("code strong")).toBeNull();
  });

  it("nests markup and ignores delimiters inside words or with spaces", () => {
    const { container } = render(<WhatsAppText text={"*_ambos_* 2*3*4 * solto *"} />);
    expect(container.querySelector("strong em")).toHaveTextContent("ambos");
    expect(container.querySelectorAll("strong")).toHaveLength(1);
    expect(container.textContent).toContain("2*3*4 * solto *");
  });

  it("never injects HTML from user text", () => {
    const out = html('<img src=x onerror="alert(1)"> *<b>x</b>*');
    expect(out).not.toContain("<img");
    expect(out).toContain("&lt;img");
    expect(out).toContain("<strong>&lt;b&gt;x&lt;/b&gt;</strong>");
  });

  it("links http urls only, opening in a new tab", () => {
    const { container } = render(<WhatsAppText text={"veja https://exemplo.com/a?b=1. e javascript:alert(1)"} />);
    const links = container.querySelectorAll("a");
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveAttribute("href", "https://exemplo.com/a?b=1");
    expect(links[0]).toHaveAttribute("rel", "noopener noreferrer");
  });

  it("strips markup for previews", () => {
    expect(stripWhatsAppMarkup("*Ana:*\n_oi_ ```x```")).toBe("Ana:\noi x");
  });
});
