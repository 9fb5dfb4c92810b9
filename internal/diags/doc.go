// Package diags holds Cairn's diagnostics model: problems in the user's
// input (configuration, variables, state, provider answers), each with a
// severity, a one-line summary, a detail that says how to fix it, and the
// narrowest source range known.
//
// Diagnostics stay structured until the renderer. A provider reports an
// attribute path rather than a range; the layer that holds the configuration
// body resolves that path into a file:line:col range (see InBody).
//
// A path in a message is spelled once, by FormatPath (and a cty error
// carrying one by FormatError), so every package words an attribute the
// same way Terraform does. This package imports nothing of Cairn's: states,
// objchange, lang and configs all depend on it.
//
// Internal failures are plain Go errors; Append turns one into an error
// diagnostic when it must reach the user.
//
// Boundary: every package reports diagnostics, so this one imports none
// of Cairn's and knows nothing of rendering.
//
// Imports:
//
//	deny internal/... # every package reports diagnostics; this one imports none of them
package diags
