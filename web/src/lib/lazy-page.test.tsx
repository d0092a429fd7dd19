import { act, render, screen } from "@testing-library/react";
import { Suspense } from "react";
import { describe, expect, it } from "vitest";
import { componentLoaded, lazyPage, loadComponent } from "./lazy-page";

const Hello = ({ name }: { name: string }) => <p data-testid="page">hello {name}</p>;

describe("lazyPage (ADR 0047)", () => {
  it("a page whose code was loaded ahead renders in the first render, with no Suspense fallback", async () => {
    let calls = 0;
    const Page = lazyPage(() => (calls++, Promise.resolve(Hello)));
    await Page.load();
    await Page.load();
    render(
      <Suspense fallback={<p data-testid="fallback" />}>
        <Page name="Ana" />
      </Suspense>,
    );
    // synchronously there: the first render shows the page, never the fallback
    expect(screen.getByTestId("page")).toHaveTextContent("hello Ana");
    expect(screen.queryByTestId("fallback")).toBeNull();
    expect(calls).toBe(1);
  });

  it("a page not loaded yet suspends as React's lazy does, then shows; a failed load is asked again", async () => {
    let release: (component: typeof Hello) => void = () => undefined;
    let attempts = 0;
    const Page = lazyPage(() => {
      attempts++;
      if (attempts === 1) return Promise.reject(new Error("offline"));
      return new Promise<typeof Hello>((resolve) => (release = resolve));
    });
    await expect(Page.load()).rejects.toThrow("offline");
    render(
      <Suspense fallback={<p data-testid="fallback" />}>
        <Page name="Bia" />
      </Suspense>,
    );
    expect(screen.getByTestId("fallback")).toBeInTheDocument();
    await act(async () => release(Hello));
    expect(await screen.findByTestId("page")).toHaveTextContent("hello Bia");
    expect(attempts).toBe(2);
  });

  it("tells whether its code is in (the signed-in shell then mounts the layout without a loader first, ADR 0052)", async () => {
    const Page = lazyPage(() => Promise.resolve(Hello));
    expect(Page.loaded()).toBe(false);
    expect(componentLoaded(Page)).toBe(false);
    await Page.load();
    expect(Page.loaded()).toBe(true);
    expect(componentLoaded(Page)).toBe(true);
    expect(componentLoaded(Hello)).toBe(true);
  });

  it("loadComponent loads a lazy page and passes over a plain component", async () => {
    const Page = lazyPage(() => Promise.resolve(Hello));
    await loadComponent(Page);
    render(<Page name="Caio" />);
    expect(screen.getByTestId("page")).toHaveTextContent("hello Caio");
    await expect(loadComponent(Hello)).resolves.toBeUndefined();
  });
});
