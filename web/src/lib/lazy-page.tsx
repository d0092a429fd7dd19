import { type ComponentType, lazy } from "react";

/** A lazily loaded component whose code can be fetched ahead (`load`), and that renders at once when it is in. */
export type LazyPage<P extends object = object> = ComponentType<P> & {
  /** Fetches the code (once; again after a failure); settles when the component can render without suspending. */
  load: () => Promise<void>;
  /** Whether the code is in (the component renders without suspending). */
  loaded: () => boolean;
};

/**
 * Like React's `lazy`, but a component whose code is already in renders directly instead of suspending first:
 * `lazy` always throws its promise on the first render (the fallback shows for at least a frame), and React 19
 * holds back a Suspense boundary's reveal until 300 ms after the last fallback it showed (issue 15: the signed-in
 * screens, loaded while the session comes back, paid that wait once per nested boundary; ADR 0047). The signed-in
 * shell `load`s the layout and the first page before it renders them, so they mount without a fallback.
 */
export function lazyPage<P extends object = object>(factory: () => Promise<ComponentType<P>>): LazyPage<P> {
  let Loaded: ComponentType<P> | undefined;
  let pending: Promise<void> | undefined;
  const load = () => {
    pending ??= factory().then(
      (component) => {
        Loaded = component;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  const Suspending = lazy(() => load().then(() => ({ default: Loaded as ComponentType<P> })));
  const Page = (props: P) => (Loaded ? <Loaded {...props} /> : <Suspending {...props} />);
  return Object.assign(Page, { load, loaded: () => Loaded !== undefined });
}

/** `load` of a route's component when it has one (a test's stand-in is a plain component: nothing to load). */
export const loadComponent = (component: unknown): Promise<void> => (component as Partial<LazyPage>).load?.() ?? Promise.resolve();

/** Whether a route's component renders without suspending (a plain component always does). */
export const componentLoaded = (component: unknown): boolean => (component as Partial<LazyPage>).loaded?.() ?? true;
