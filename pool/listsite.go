package pool

import (
	"errors"
	"io/fs"
	"net/http"
	"os"
	"sort"

	"hivearbiter/ratinglist"
)

// keptList is a rating list the server keeps, as its pages show it: its name, and the folder
// its site is written to (served read-only under /lists/SLUG/).
type keptList struct {
	ID, Name string
	// Slug names the list in the site's address (ratinglist.Slug of its name, with its ID
	// when another list has the same).
	Slug string
	Site string
}

// listOf is the ID of the list whose batch a run is ("" for another run): a batch appends to
// the list's records file, and its games carry the list's ID.
func listOf(sub *Submission) string {
	if sub == nil || sub.Records == "" {
		return ""
	}
	return sub.Config.Labels[ratinglist.LabelList]
}

// keepListSite records where a kept list's site is written, for the dashboard to link and
// the server to serve. The list's file is read again before each batch: its name and folder
// are taken again with it.
func (s *Server) keepListSite(l *ratinglist.List) {
	id := l.ID()
	slug := ratinglist.Slug(l.Name)
	if slug == "" {
		slug = "list"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lists == nil {
		s.lists = map[string]keptList{}
	}
	for _, other := range s.lists {
		if other.ID != id && other.Slug == slug {
			slug += "-" + id
			break
		}
	}
	s.lists[id] = keptList{ID: id, Name: l.Name, Slug: slug, Site: l.Site}
}

// keptLists are the lists the server keeps, by name.
func (s *Server) keptLists() []keptList {
	s.mu.Lock()
	defer s.mu.Unlock()
	lists := make([]keptList, 0, len(s.lists))
	for _, l := range s.lists {
		lists = append(lists, l)
	}
	sort.Slice(lists, func(i, j int) bool { return lists[i].Name < lists[j].Name })
	return lists
}

// listSite finds a kept list by the slug of its site's address.
func (s *Server) listSite(slug string) (keptList, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.lists {
		if l.Slug == slug && l.Site != "" {
			return l, true
		}
	}
	return keptList{}, false
}

// serveListSite serves a kept list's site, read-only, from its folder: through an os.Root,
// so that no name (.., a link out of the folder) reaches a file outside it.
func (s *Server) serveListSite(w http.ResponseWriter, r *http.Request) {
	l, ok := s.listSite(r.PathValue("list"))
	if !ok {
		http.Error(w, "no list "+r.PathValue("list")+" is kept by this pool", http.StatusNotFound)
		return
	}
	root, err := os.OpenRoot(l.Site)
	if errors.Is(err, fs.ErrNotExist) {
		http.Error(w, "the site of list "+l.Name+" is not written yet", http.StatusNotFound)
		return
	} else if err != nil {
		http.Error(w, "the site of list "+l.Name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	defer root.Close()
	w.Header().Set("Cache-Control", "no-cache")
	http.StripPrefix("/lists/"+l.Slug, http.FileServerFS(root.FS())).ServeHTTP(w, r)
}
