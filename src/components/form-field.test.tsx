import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { FormField } from './form-field.tsx';

test('a field ties its control to the hint and the error, marks it invalid and announces the error', () => {
  const html = renderToStaticMarkup(
    <FormField id="f-budget" label="Budget" required hint="At least $50." error="Enter a budget.">
      {(c) => <input {...c} />}
    </FormField>,
  );
  expect(html).toContain(
    '<label for="f-budget" id="f-budget-label">Budget <span class="required" aria-hidden="true">*</span></label>',
  );
  expect(html).toContain('<p class="field-hint muted" id="f-budget-hint">At least $50.</p>');
  expect(html).toContain('<input id="f-budget" aria-describedby="f-budget-hint f-budget-error" aria-invalid="true"/>');
  expect(html).toContain('<p class="field-error" id="f-budget-error" role="alert">Enter a budget.</p>');
});

test('without hint or error the control carries no description and is not marked invalid', () => {
  const html = renderToStaticMarkup(
    <FormField id="f-title" label="Title">
      {(c) => <input {...c} />}
    </FormField>,
  );
  expect(html).toBe(
    '<div class="field"><label for="f-title" id="f-title-label">Title</label><input id="f-title"/></div>',
  );
});

test('"(optional)" only where asked for and only on a field that is not required', () => {
  const optional = renderToStaticMarkup(
    <FormField id="a" label="Audience" showOptional>
      {(c) => <input {...c} />}
    </FormField>,
  );
  expect(optional).toContain('Audience<span class="muted optional"> (optional)</span>');
  const required = renderToStaticMarkup(
    <FormField id="b" label="Goals" required showOptional>
      {(c) => <input {...c} />}
    </FormField>,
  );
  expect(required).not.toContain('optional');
});

test('a group is labelled by a span the group names by id', () => {
  const html = renderToStaticMarkup(
    <FormField id="n" group label="Niches" required hint="Choose 1 to 3.">
      {(c) => <div role="group" aria-labelledby="n-label" aria-describedby={c['aria-describedby']} />}
    </FormField>,
  );
  expect(html).toContain(
    '<span class="field-label" id="n-label">Niches <span class="required" aria-hidden="true">*</span></span>',
  );
  expect(html).not.toContain('<label');
  expect(html).toContain('<div role="group" aria-labelledby="n-label" aria-describedby="n-hint"></div>');
});
