import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AgeChip } from "./age-chip";

afterEach(() => vi.useRealTimers());

describe("age label on a card", () => {
  it("refreshes every 30 s and changes colour as the ticket ages", () => {
    vi.useFakeTimers({ now: new Date("2026-05-10T12:00:00Z") });
    render(<AgeChip since="2026-05-10T11:58:00Z" />);
    const label = screen.getByTestId("age-label");
    expect(label).toHaveTextContent("2 min");
    expect(label).toHaveAttribute("data-color", "default");
    act(() => vi.advanceTimersByTime(60_000));
    expect(label).toHaveTextContent("3 min");
    expect(label).toHaveAttribute("data-color", "green");
    act(() => vi.advanceTimersByTime(28 * 60_000));
    expect(label).toHaveAttribute("data-color", "orange");
    act(() => vi.advanceTimersByTime(30 * 60_000));
    expect(label).toHaveTextContent("1 h");
    expect(label).toHaveAttribute("data-color", "red");
  });
});
