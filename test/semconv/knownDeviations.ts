/**
 * The deviations from v1.41 that issue 13 lists and today's code still shows, each with the checker
 * lines it produces. A scenario names the ones it exhibits today: each becomes an `it.fails` test
 * (green while the deviation is there, red once it is fixed), and every other line the checker
 * reports fails the scenario's plain conformance test. When a fix lands, delete the item from the
 * scenario's list: the plain test then guards it. See README.md in this folder.
 */

export interface KnownDeviation {
  /** "issue 13 item N" (or the "Lead" / "Also found" part). */
  item: string;
  title: string;
  matches(line: string): boolean;
}

const line = (pattern: RegExp) => (text: string) => pattern.test(text);

export const KNOWN_DEVIATIONS = {
  failedMemberErrorType: {
    item: 'issue 13 item 1',
    title: 'a failed nested invoke_agent / invoke_workflow span has ERROR status but no error.type',
    matches: line(/\[span\.gen_ai\.invoke_(agent|workflow)\.\w+\] · error\.type · missing/),
  },
  agentOutputSchema: {
    item: 'issue 13 item 5',
    title: 'gen_ai.output.messages on invoke_agent fails the v1.41 JSON schema (no finish_reason)',
    matches: line(/\[span\.gen_ai\.invoke_agent\.\w+\] · gen_ai\.output\.messages · fails the v1\.41 JSON schema/),
  },
  lateAgentIdentity: {
    item: 'issue 13 item 6',
    title: 'invoke_agent spans get their name and sampling-relevant gen_ai.* attributes after they start',
    matches: line(/\[span\.gen_ai\.invoke_agent\.\w+\] · (started as .*, renamed later|\S+ · sampling-relevant but not set at span start)/),
  },
  exceptionTypeIsStatus: {
    item: 'issue 13 item 7',
    title: 'exception events carry the HTTP status as exception.type',
    matches: line(/event "exception" · exception\.type · is a status code/),
  },
  systemPromptInHistory: {
    item: 'issue 13 item 9',
    title: 'a system prompt sent inside the OpenAI history is recorded as gen_ai.system_instructions',
    matches: line(/\[span\.gen_ai\.inference\.client\] · gen_ai\.system_instructions · set though/),
  },
  toolAttributes: {
    item: 'issue 13 item 10',
    title: 'execute_tool lacks gen_ai.tool.description and sets gen_ai.tool.call.result on failed calls',
    matches: line(/\[span\.gen_ai\.execute_tool\.internal\] · gen_ai\.tool\.(description · missing|call\.result · set though)/),
  },
  agentSummary: {
    item: 'issue 13 item 11',
    title: 'invoke_agent lacks gen_ai.agent.description, finish reasons, cache usage and the request settings it knows',
    matches: line(
      /\[span\.gen_ai\.invoke_agent\.\w+\] · gen_ai\.(agent\.description|response\.finish_reasons|usage\.cache_read\.input_tokens|request\.max_tokens|request\.temperature) · missing/,
    ),
  },
  toolDefinitions: {
    item: "issue 13 'Lead where no one has'",
    title: 'gen_ai.tool.definitions (opt-in) on chat and invoke_agent',
    matches: line(/ · gen_ai\.tool\.definitions · missing/),
  },
} satisfies Record<string, KnownDeviation>;

export type DeviationKey = keyof typeof KNOWN_DEVIATIONS;
