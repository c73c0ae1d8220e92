// Package xmlattr reads attributes of XML start elements as the report
// readers do: the last of a repeated attribute wins.
package xmlattr

import "encoding/xml"

// Get returns the value of el's attribute name, "" when absent; when the
// attribute repeats, the last wins, as in go-junit's map.
func Get(el xml.StartElement, name string) string {
	v := ""
	for _, a := range el.Attr {
		if a.Name.Local == name {
			v = a.Value
		}
	}
	return v
}
