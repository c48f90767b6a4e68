import { describe, expect, it } from 'vitest';
import { isUserMessage } from '../messages.js';
import {
  BULK_TEMPLATE_VARIABLES,
  TEMPLATE_EVENTS,
  TEMPLATE_EVENT_CODES,
  TEMPLATE_MSG,
  TEMPLATE_VARIABLES,
  exampleVariables,
  fillTemplate,
  templateBodySchema,
  templateVariablesIn,
  unknownTemplateVariables,
  variablesOf,
} from './templates.js';

describe('template catalogue', () => {
  it.each(TEMPLATE_EVENT_CODES)('%s: its default texts use only its variables, its SMS params are among them', (code) => {
    const event = TEMPLATE_EVENTS[code];
    const d = event.defaults;
    expect(unknownTemplateVariables([d.subject, d.body, d.smsText], event.variables)).toEqual([]);
    expect(event.smsParams.every((v) => (event.variables as readonly string[]).includes(v))).toBe(true);
    expect(event.variables.every((v) => v in TEMPLATE_VARIABLES)).toBe(true);
    // The defaults pass the editor's own validation.
    expect(templateBodySchema.safeParse({ name: event.name, channels: [...d.channels], subject: d.subject, body: d.body, smsText: d.smsText }).success).toBe(true);
    // An SMS channel always has a text.
    if ((d.channels as readonly string[]).includes('SMS')) expect(d.smsText).not.toBe('');
  });

  it('bulk templates offer the bulk-send variables', () => {
    expect(variablesOf(null)).toEqual(BULK_TEMPLATE_VARIABLES);
    expect(variablesOf('TEAM_APPROVED')).toEqual(['teamName', 'status']);
    expect(variablesOf('NOT_AN_EVENT')).toEqual(BULK_TEMPLATE_VARIABLES);
    expect(BULK_TEMPLATE_VARIABLES).toEqual(['name', 'teamName', 'orgName', 'projectName']);
  });

  it('every text of the template calls is a user message', () => {
    for (const text of Object.values(TEMPLATE_MSG)) expect(isUserMessage(text), text).toBe(true);
  });
});

describe('template rendering', () => {
  it('finds variables once each, in order; other braces are text', () => {
    expect(templateVariablesIn('{a}{b1} {a} { c } {1x} {{d}} {_e}')).toEqual(['a', 'b1', 'd']);
    expect(unknownTemplateVariables(['{teamName}{x}', '{y}{x}'], ['teamName'])).toEqual(['x', 'y']);
  });

  it('fills plain values (no escaping) and leaves missing ones empty', () => {
    expect(fillTemplate('「{teamName}」{reason}。{missing}{ teamName }', { teamName: '<b>A&B</b>', reason: '无' })).toBe('「<b>A&B</b>」无。{ teamName }');
    expect(fillTemplate('{a}{a}', { a: '$&' })).toBe('$&$&');
  });

  it('has an example for every variable', () => {
    expect(exampleVariables(['teamName', 'nope'])).toEqual({ teamName: TEMPLATE_VARIABLES.teamName.example, nope: 'nope' });
  });

  it('orders and de-duplicates channels, and turns a blank SMS template id into null', () => {
    const parsed = templateBodySchema.parse({ name: ' n ', channels: ['SMS', 'INSITE', 'SMS'], subject: 's', body: 'b', smsText: 't', smsTemplateId: '' });
    expect(parsed).toMatchObject({ name: 'n', channels: ['INSITE', 'SMS'], smsTemplateId: null });
  });
});
