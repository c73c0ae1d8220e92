// Package render shows a report envelope within a size budget: Plan
// decides what fits (a View: which excerpts at which length, what is
// left out and why, counted in the envelope's Omitted), and renderers
// only format a view. Markdown is the comment's and the summary's; the
// MCP tools format views as text and JSON. The escaping here keeps log
// text from breaking the Markdown, mentioning people or forging markers.
package render

// The budgets of every surface runledger writes, in bytes of Markdown,
// stated once: callers name one, the planner fits the view to it.
const (
	// MaxBudget keeps a body clear of GitHub's 65,536-character comment
	// limit (publish.MaxCommentChars), with room for other jobs' sections.
	MaxBudget = 60000
	// CommentBudget is one job's section of the sticky comment, and the
	// step summary, which shows the same report.
	CommentBudget = MaxBudget
	// CompactBudget is that section when the comment runs short of room
	// (publish falls back to it before leaving the section's excerpts out).
	CompactBudget = 4096
	// LegBudget and LegCompactBudget are one matrix leg's section in mode
	// aggregate: up to 256 legs share one comment.
	LegBudget        = 8192
	LegCompactBudget = 2048
	// SummaryBudget is the job summary of mode aggregate, every leg's runs
	// in one report.
	SummaryBudget = MaxBudget
	// TerminalBudget is `report` and `run --report` unless --max-bytes.
	TerminalBudget = 16384
	// AgentBudget is one MCP tool result, its text and its structured
	// content together, unless `mcp --max-result-bytes`: an agent's
	// context is the scarce resource, and every byte left out is one
	// call away.
	AgentBudget = 8 << 10
)
