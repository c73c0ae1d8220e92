// Package lint holds the checks of the repository's GitHub Actions files:
// the workflows and action.yml through actionlint, and the README's
// inputs and outputs tables against action.yml. It is a module of its own
// so the product's go.mod does not carry actionlint.
package lint
