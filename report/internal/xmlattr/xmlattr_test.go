package xmlattr

import (
	"encoding/xml"
	"fmt"
	"strings"
)

func ExampleGet() {
	d := xml.NewDecoder(strings.NewReader(`<testcase name="first" classname="pkg" name="second"/>`))
	tok, _ := d.Token()
	el := tok.(xml.StartElement)
	fmt.Printf("%q %q %q\n", Get(el, "name"), Get(el, "classname"), Get(el, "time"))
	// Output: "second" "pkg" ""
}
