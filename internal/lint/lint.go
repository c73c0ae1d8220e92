// Package lint holds the checks of the repository's GitHub Actions files:
// the workflows, the README's workflows and the composite actions' steps
// through actionlint, the README's inputs and outputs tables against
// action.yml, report/action.yml against the Docker action, and the release
// workflow's edits of action.yml and setup/action.yml. It is a module of its own
// so the product's go.mod does not carry actionlint.
package lint
