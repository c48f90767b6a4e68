import { expect } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';

/**
 * Answers the confirm box whose text matches `text` by pressing `button`. Confirm boxes come from
 * the lazily loaded feedback holders, and one answered before lingers in the page while it closes
 * (happy-dom never ends antd's leave motion): so this waits long (a loaded CI machine), skips boxes
 * already answered or closing, and marks the one it answers.
 */
export async function answerConfirm(text: string | RegExp, button: string): Promise<void> {
  const box = await waitFor(
    () => {
      const open = screen
        .queryAllByText(text)
        .map((hit) => hit.closest('.ant-modal') as HTMLElement | null)
        .filter((modal): modal is HTMLElement => modal !== null && modal.dataset.answered === undefined && !closing(modal));
      expect(open.length, `an open confirm saying ${String(text)}`).toBeGreaterThan(0);
      const last = open[open.length - 1]!;
      // The buttons are drawn with the box; wait for the one asked for too.
      within(last).getByRole('button', { name: button });
      return last;
    },
    { timeout: 20_000 },
  );
  box.dataset.answered = 'yes';
  fireEvent.click(within(box).getByRole('button', { name: button }));
}

/** antd marks a box that is going away with its motion's leave classes. */
const closing = (modal: HTMLElement) => /-leave/.test(modal.className) || /-leave/.test(modal.closest('.ant-modal-wrap')?.className ?? '');
