// A result's rule, found as SARIF lets a result name it: by index into its tool component's rules
// (the driver's, or an extension's, as CodeQL's query packs are), else by id. Each rule is checked
// once, when a result first names it; the ids are indexed once per component, counted against the
// log's budget.

import type { ExaminedValues } from './sarifBounds';
import { SarifRule, trimRule, type SarifResult, type SarifRun, type SarifToolComponent } from './sarifShape';

/** Rules indexed per tool component, for results that name their rule by id only. */
const MAX_INDEXED_RULES = 20_000;

/** A rule as found: its component, its place in that component's rules, and the rule when it checks out. */
export interface FoundRule {
  readonly component: SarifToolComponent;
  readonly index?: number;
  readonly rule?: SarifRule;
}

export class RuleIndex {
  private readonly byId = new Map<SarifToolComponent, Map<string, number>>();
  private readonly checked = new Map<SarifToolComponent, Map<number, SarifRule | undefined>>();

  constructor(
    private readonly run: SarifRun,
    private readonly examined: ExaminedValues,
  ) {}

  componentOf(result: SarifResult): SarifToolComponent {
    const index = result.rule?.toolComponent?.index;
    return (index === undefined ? undefined : this.run.tool.extensions?.[index]) ?? this.run.tool.driver;
  }

  of(result: SarifResult): FoundRule {
    const component = this.componentOf(result);
    const id = result.ruleId ?? result.rule?.id;
    let index = result.ruleIndex ?? result.rule?.index;
    if (index === undefined && id !== undefined)
      index = this.idsOf(component).get(id) ?? this.idsOf(component).get(id.split('/')[0]);
    if (index === undefined || index >= (component.rules?.length ?? 0)) return { component };
    return { component, index, rule: this.ruleAt(component, index) };
  }

  private ruleAt(component: SarifToolComponent, index: number): SarifRule | undefined {
    let rules = this.checked.get(component);
    if (rules === undefined) this.checked.set(component, (rules = new Map()));
    if (rules.has(index)) return rules.get(index);
    const parsed = SarifRule.safeParse(trimRule(component.rules?.[index], this.examined));
    const rule = parsed.success ? parsed.data : undefined;
    rules.set(index, rule);
    return rule;
  }

  private idsOf(component: SarifToolComponent): Map<string, number> {
    let ids = this.byId.get(component);
    if (ids === undefined) {
      ids = new Map();
      const rules = this.examined.items(component.rules, MAX_INDEXED_RULES);
      for (let i = 0; i < rules.length; i++) {
        const id = (rules[i] as { id?: unknown } | null)?.id;
        if (typeof id === 'string' && !ids.has(id)) ids.set(id, i);
      }
      this.byId.set(component, ids);
    }
    return ids;
  }
}
