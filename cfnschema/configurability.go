package cfnschema

// configure decides Required/Optional/Computed, sensitivity and the plan
// behaviour of one attribute, applying awscc's rules in awscc's order:
//
//  1. required with a default → Optional (the default fills it in);
//  2. not required and not read-only → Optional;
//  3. read-only or create-only, and not required → Computed;
//  4. a default → Computed;
//  5. Optional → also Computed (awscc's answer to servers that fill in
//     values the configuration left out);
//  6. inside a computed-only parent → Computed only;
//  7. required inside an Optional+Computed parent → Optional+Computed with a
//     not-null validator, so the parent may be left out but not half-set;
//  8. read-only and required stays Required.
//
// Then: Computed attributes keep their prior value while unknown
// (UseStateForUnknown) unless the parent is computed-only; create-only
// attributes replace the resource when they change (only when configured,
// if they are Optional); write-only attributes are masked, not Sensitive,
// as awscc marks nothing Sensitive.
func (w *walker) configure(a *Attribute, required, hasDefault bool, p parent) {
	req, opt, comp := required, false, false
	if req && hasDefault {
		req, opt = false, true
		a.Reasons = append(a.Reasons, "required with a default: Optional, the default applies when it is left out")
	}
	if !req && !a.ReadOnly {
		opt = true
	}
	if (a.ReadOnly || a.CreateOnly) && !req {
		comp = true
	}
	if hasDefault {
		comp = true
	}
	if opt {
		comp = true
	}
	if a.ReadOnly {
		if req {
			a.Reasons = append(a.Reasons, "read-only but also required: stays Required, as in awscc")
		} else {
			a.Reasons = append(a.Reasons, "read-only (readOnlyProperties): Computed")
		}
	}
	if p.computedOnly && (req || opt) {
		req, opt, comp = false, false, true
		a.Reasons = append(a.Reasons, "inside a computed-only value: Computed")
	}
	if req && p.optionalComputed {
		req, opt, comp = false, true, true
		a.NotNull = true
		a.Reasons = append(a.Reasons, "required inside an optional value: Optional, and must not be null when the enclosing value is set")
	}
	a.Required, a.Optional, a.Computed = req, opt, comp
	a.UseStateForUnknown = comp && !p.computedOnly
	if a.CreateOnly {
		if opt && comp {
			a.Replace = RequiresReplaceIfConfigured
			a.Reasons = append(a.Reasons, "create-only (createOnlyProperties): a configured change replaces the resource")
		} else {
			a.Replace = RequiresReplace
			a.Reasons = append(a.Reasons, "create-only (createOnlyProperties): a change replaces the resource")
		}
	}
	if a.WriteOnly {
		a.Masked = true
		a.Reasons = append(a.Reasons, "write-only (writeOnlyProperties): masked (Cairn shows it as sensitive; not Sensitive in the schema, as in awscc); Cloud Control never returns it, so the runtime keeps the prior state's value on read")
	}
}
