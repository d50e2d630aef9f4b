import { expect, type Locator, type Page } from '@playwright/test';

/** /swipe: one card at a time with Skip and Apply, keyboard and pointer swipes. */
export class SwipePage {
  readonly card: Locator;
  readonly title: Locator;
  readonly skipButton: Locator;
  readonly applyButton: Locator;
  readonly announcer: Locator;

  constructor(readonly page: Page) {
    this.card = page.locator('main article.swipe-card');
    this.title = this.card.getByRole('heading', { level: 2 });
    this.skipButton = page.getByRole('button', { name: 'Skip' });
    this.applyButton = page.getByRole('button', { name: 'Apply' });
    this.announcer = page.getByTestId('swipe-announcer');
  }

  async goto() {
    await this.page.goto('/swipe');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Swipe deals' })).toBeVisible();
  }

  async currentTitle(): Promise<string> {
    await expect(this.title).toBeVisible();
    return (await this.title.textContent()) ?? '';
  }

  /** Handles the current card and waits until the next one (or the end) shows. */
  async act(action: 'apply' | 'skip', how: 'button' | 'key' | 'drag' = 'button'): Promise<string> {
    const title = await this.currentTitle();
    if (how === 'button') await (action === 'apply' ? this.applyButton : this.skipButton).click();
    else if (how === 'key') await this.page.keyboard.press(action === 'apply' ? 'ArrowRight' : 'ArrowLeft');
    else await this.drag(action === 'apply' ? 160 : -160);
    await expect(this.title).not.toHaveText(title);
    return title;
  }

  /** A touch-like drag on the card (pointer events), as a finger swipe. */
  async drag(dx: number) {
    // The card is re-rendered as the deck moves on: measure it once it is on screen.
    await this.card.waitFor({ state: 'visible' });
    const box = await this.card.boundingBox();
    if (!box) throw new Error('no card');
    const y = box.y + box.height / 2;
    const x = box.x + box.width / 2;
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    for (let i = 1; i <= 8; i++) await this.page.mouse.move(x + (dx * i) / 8, y);
    await this.page.mouse.up();
  }

  /** Skips cards until one with this title is current (bounded). */
  async skipUntil(title: string, max = 80): Promise<void> {
    for (let i = 0; i < max; i++) {
      if ((await this.currentTitle()) === title) return;
      await this.act('skip');
    }
    throw new Error(`"${title}" never came up in the swipe deck`);
  }
}
