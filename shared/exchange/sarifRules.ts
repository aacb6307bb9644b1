// A result's rule, found as SARIF lets a result name it: by index into its tool component's rules
// (the driver's, or an extension's, as CodeQL's query packs are), else by id.

import { SarifRule, type SarifResult, type SarifRun, type SarifToolComponent } from './sarifShape';

/** Rules indexed per tool component, for results that name their rule by id only. */
const MAX_INDEXED_RULES = 20_000;

export class RuleIndex {
  private readonly byId = new Map<SarifToolComponent, Map<string, number>>();
  constructor(private readonly run: SarifRun) {}

  componentOf(result: SarifResult): SarifToolComponent {
    const index = result.rule?.toolComponent?.index;
    return (index === undefined ? undefined : this.run.tool.extensions?.[index]) ?? this.run.tool.driver;
  }

  of(result: SarifResult): SarifRule | undefined {
    const component = this.componentOf(result);
    const rules = component.rules ?? [];
    const id = result.ruleId ?? result.rule?.id;
    let index = result.ruleIndex ?? result.rule?.index;
    if (index === undefined && id !== undefined)
      index = this.idsOf(component).get(id) ?? this.idsOf(component).get(id.split('/')[0]);
    const rule = index === undefined ? undefined : SarifRule.safeParse(rules[index]);
    return rule?.success ? rule.data : undefined;
  }

  private idsOf(component: SarifToolComponent): Map<string, number> {
    let ids = this.byId.get(component);
    if (ids === undefined) {
      ids = new Map();
      const rules = component.rules ?? [];
      for (let i = 0; i < Math.min(rules.length, MAX_INDEXED_RULES); i++) {
        const id = (rules[i] as { id?: unknown } | null)?.id;
        if (typeof id === 'string' && !ids.has(id)) ids.set(id, i);
      }
      this.byId.set(component, ids);
    }
    return ids;
  }
}
