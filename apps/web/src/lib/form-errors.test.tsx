import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { Button, Form, Input } from 'antd';
import { AppProviders } from '../app/providers';
import { initI18n } from '../i18n';
import { initPreferences } from './preferences';
import { useFormSubmit } from './use-form-submit';

/**
 * WCAG 3.3.1 / 4.1.3: after a refused submit the keyboard and screen-reader user lands on the first
 * wrong field, which reads its error, and hears how many fields need attention.
 */

function renderInApp(node: React.ReactNode) {
  initPreferences({ search: '', storage: localStorage, languages: ['zh-CN'] });
  initI18n();
  return render(<AppProviders queryClient={new QueryClient()}>{node}</AppProviders>);
}

interface Values {
  title: string;
  reason: string;
}

/** A dialog-like form checked by hand (the reason dialogs' shape: useFormSubmit). */
function HandChecked() {
  const [form] = Form.useForm<Values>();
  const { submit } = useFormSubmit(form, async () => undefined, () => null);
  return (
    <Form form={form} layout="vertical">
      <Form.Item name="title" label="标题" rules={[{ required: true, message: '请输入标题' }]}>
        <Input />
      </Form.Item>
      <Form.Item name="reason" label="原因" rules={[{ required: true, message: '请输入原因' }]}>
        <Input.TextArea />
      </Form.Item>
      <Button onClick={() => void submit()}>提交</Button>
    </Form>
  );
}

/** A form submitted by its button (onFinish). */
function Submitted() {
  return (
    <Form layout="vertical" onFinish={() => undefined}>
      <Form.Item name="title" label="标题" rules={[{ required: true, message: '请输入标题' }]}>
        <Input />
      </Form.Item>
      <Form.Item name="reason" label="原因" rules={[{ required: true, message: '请输入原因' }]}>
        <Input />
      </Form.Item>
      <Button htmlType="submit">提交</Button>
    </Form>
  );
}

async function expectFocusOnFirstError(label: string, message: string) {
  const field = screen.getByLabelText(label);
  await waitFor(() => expect(document.activeElement).toBe(field));
  expect(field.getAttribute('aria-invalid')).toBe('true');
  const describedBy = (field.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  await waitFor(() => {
    const texts = describedBy.map((id) => document.getElementById(id)?.textContent ?? '');
    expect(texts.join(' ')).toContain(message);
  });
}

describe('focus on the first wrong field after a refused submit', () => {
  it('forms checked by hand (useFormSubmit): focus, its error, and the count announced', async () => {
    renderInApp(<HandChecked />);
    const submitButton = screen.getByRole('button', { name: '提交' });
    submitButton.focus();
    fireEvent.click(submitButton);
    await expectFocusOnFirstError('标题', '请输入标题');
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('有 2 项需要修改'));
  });

  it('forms submitted with onFinish: focus, its error, and the count announced', async () => {
    renderInApp(<Submitted />);
    const submitButton = screen.getByRole('button', { name: '提交' });
    submitButton.focus();
    fireEvent.click(submitButton);
    await expectFocusOnFirstError('标题', '请输入标题');
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('有 2 项需要修改'));
  });

  it('says it in English too', async () => {
    initPreferences({ search: '?lang=en', storage: localStorage, languages: ['en-US'] });
    initI18n();
    render(<AppProviders queryClient={new QueryClient()}><HandChecked /></AppProviders>);
    fireEvent.click(screen.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Fields needing attention: 2'));
  });
});
