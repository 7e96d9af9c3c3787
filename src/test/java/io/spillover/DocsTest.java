package io.spillover;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.deploy.KnownProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;

/**
 * The README and the guide under {@code docs/} cannot rot silently: every relative link resolves to a file of the
 * repository and every anchor to a heading of the page it names (as GitHub makes them), and the configuration
 * reference lists exactly the {@code spillover.*} properties the code binds.
 */
class DocsTest {

    static final Path REPOSITORY = Path.of("").toAbsolutePath();
    static final Path REFERENCE = Path.of("docs", "configuration.md");
    /** The product contract and the style guide live beside the repository, in the workspace's {@code shared/}. */
    static final Set<Path> OUTSIDE_ALLOWED = Set.of(REPOSITORY.resolve("../shared/SPEC.md").normalize(),
            REPOSITORY.resolve("../shared/STYLE.md").normalize());

    private static final Parser MARKDOWN = Parser.builder().build();
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");
    private static final Pattern PROPERTY = Pattern.compile("`(spillover\\.[a-z0-9.\\[\\]<>-]+)`");

    /** One link as written: the page it is on, where it points, and what it says (for the failure message). */
    record LinkFound(Path page, String destination) {
        @Override
        public String toString() {
            return REPOSITORY.relativize(page) + ": (" + destination + ")";
        }
    }

    @Test
    void everyRelativeLinkAndAnchorOfTheReadmeAndTheGuideResolves() throws IOException {
        List<Path> pages = pages();
        var broken = new ArrayList<String>();
        var anchors = new HashMap<Path, Set<String>>();
        int checked = 0;
        for (Path page : pages) {
            for (LinkFound link : links(page)) {
                String problem = problem(link, anchors);
                if (problem != null) {
                    broken.add(link + ": " + problem);
                }
                checked++;
            }
        }

        assertThat(pages).contains(REPOSITORY.resolve("README.md"), REPOSITORY.resolve(REFERENCE));
        assertThat(checked).as("links checked").isGreaterThan(50);
        assertThat(broken).as("links that do not resolve").isEmpty();
    }

    @Test
    void theConfigurationReferenceListsEveryPropertyTheCodeBindsAndNoOther() throws IOException {
        Set<String> bound = KnownProperties.onClassPath().names("spillover.");
        Set<String> documented = documentedProperties(Files.readString(REFERENCE));

        assertThat(bound).contains("spillover.provider", "spillover.queue.fair-share", "spillover.sagemaker.fleet");
        assertThat(bound).filteredOn(p -> !documented.contains(p))
                .as("properties the code binds that " + REFERENCE + " does not list (add a row: name, default, meaning)")
                .isEmpty();
        assertThat(documented).filteredOn(p -> !bound.contains(p))
                .as("properties " + REFERENCE + " lists that the code no longer binds").isEmpty();
    }

    @Test
    void githubSlugsHeadingsAsItsPagesLinkThem() {
        var seen = new HashMap<String, Integer>();
        assertThat(slug("2. Trace replay in virtual time", seen)).isEqualTo("2-trace-replay-in-virtual-time");
        assertThat(slug("What is proven, and how to rerun it", seen)).isEqualTo("what-is-proven-and-how-to-rerun-it");
        assertThat(slug("The job's event stream", seen)).isEqualTo("the-jobs-event-stream");
        assertThat(slug("Estimated starts: how close they come", seen)).isEqualTo("estimated-starts-how-close-they-come");
        assertThat(slug("From a pipeline: the spillover CLI", seen)).isEqualTo("from-a-pipeline-the-spillover-cli");
        assertThat(slug("One cycle: snapshot → decide → apply", seen)).isEqualTo("one-cycle-snapshot--decide--apply");
        assertThat(slug("Settings", seen)).isEqualTo("settings");
        assertThat(slug("Settings", seen)).isEqualTo("settings-1");
    }

    @Test
    void aReferenceRowNamesItsPropertyWithoutTheListIndexOrMapKey() {
        assertThat(documentedProperties("""
                | property | default | what |
                | --- | --- | --- |
                | `spillover.sagemaker.fleet[i].instance-type`, `spillover.sagemaker.fleet[i].region` | none | x |
                | `spillover.catalog.cuda-drivers.<family>` | none | y |
                | `spillover.provider` (`SPILLOVER_PROVIDER`) | `local` | z |
                """)).containsExactly("spillover.catalog.cuda-drivers", "spillover.provider",
                "spillover.sagemaker.fleet");
    }

    /** README.md and every page under docs/, deploy/ and frontend/. */
    static List<Path> pages() throws IOException {
        var pages = new ArrayList<Path>();
        pages.add(REPOSITORY.resolve("README.md"));
        for (String folder : List.of("docs", "deploy", "frontend")) {
            try (Stream<Path> files = Files.walk(REPOSITORY.resolve(folder))) {
                files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(pages::add);
            }
        }
        return pages;
    }

    /** The links and images of a page as GitHub renders it (code blocks and spans hold none). */
    static List<LinkFound> links(Path page) throws IOException {
        var found = new ArrayList<LinkFound>();
        MARKDOWN.parse(Files.readString(page)).accept(new AbstractVisitor() {
            @Override
            public void visit(Link link) {
                found.add(new LinkFound(page, link.getDestination()));
                visitChildren(link);
            }

            @Override
            public void visit(Image image) {
                found.add(new LinkFound(page, image.getDestination()));
                visitChildren(image);
            }
        });
        return found;
    }

    /** Why the link does not resolve, or null when it does. */
    private static String problem(LinkFound link, Map<Path, Set<String>> anchors) throws IOException {
        String destination = link.destination();
        if (SCHEME.matcher(destination).find()) {
            return null; // a web address: not this test's to fetch
        }
        int hash = destination.indexOf('#');
        String file = hash < 0 ? destination : destination.substring(0, hash);
        String anchor = hash < 0 ? null : destination.substring(hash + 1);
        if (file.startsWith("/")) {
            return "an absolute path; write it relative to the page";
        }
        Path target = file.isEmpty() ? link.page() : link.page().resolveSibling(decoded(file)).normalize();
        if (!target.startsWith(REPOSITORY)) {
            return OUTSIDE_ALLOWED.contains(target) ? null : "outside the repository";
        }
        if (!Files.exists(target)) {
            return REPOSITORY.relativize(target) + " does not exist";
        }
        if (anchor == null || !target.toString().endsWith(".md")) {
            return null;
        }
        Set<String> known = anchors.get(target);
        if (known == null) {
            known = anchors(Files.readString(target));
            anchors.put(target, known);
        }
        return known.contains(anchor) ? null : "no heading of " + REPOSITORY.relativize(target) + " makes #" + anchor;
    }

    private static String decoded(String path) {
        return java.net.URLDecoder.decode(path.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The anchors a page has: its headings' slugs, and {@code <a name="...">} or {@code id="..."} in its HTML. */
    static Set<String> anchors(String markdown) {
        var anchors = new LinkedHashSet<String>();
        var seen = new HashMap<String, Integer>();
        MARKDOWN.parse(markdown).accept(new AbstractVisitor() {
            @Override
            public void visit(Heading heading) {
                anchors.add(slug(text(heading), seen));
            }

            @Override
            public void visit(HtmlInline html) {
                html(html.getLiteral());
            }

            @Override
            public void visit(HtmlBlock html) {
                html(html.getLiteral());
            }

            private void html(String literal) {
                Matcher anchor = HTML_ANCHOR.matcher(literal);
                while (anchor.find()) {
                    anchors.add(anchor.group(1));
                }
            }
        });
        return anchors;
    }

    /** A heading's text as GitHub reads it for its anchor: text and code spans, without the markup. */
    private static String text(Node node) {
        var text = new StringBuilder();
        node.accept(new AbstractVisitor() {
            @Override
            public void visit(Text t) {
                text.append(t.getLiteral());
            }

            @Override
            public void visit(Code code) {
                text.append(code.getLiteral());
            }
        });
        return text.toString();
    }

    /**
     * GitHub's anchor for a heading: lower case; every character that is not a letter, a digit, a mark, a space, a
     * hyphen or an underscore dropped; each space a hyphen; the n-th repeat of an anchor on the page gets
     * {@code -n}.
     */
    static String slug(String heading, Map<String, Integer> seen) {
        var slug = new StringBuilder();
        heading.strip().toLowerCase(java.util.Locale.ROOT).codePoints().forEach(c -> {
            if (c == ' ') {
                slug.append('-');
            } else if (Character.isLetterOrDigit(c) || c == '-' || c == '_'
                    || Character.getType(c) == Character.NON_SPACING_MARK
                    || Character.getType(c) == Character.COMBINING_SPACING_MARK) {
                slug.appendCodePoint(c);
            }
        });
        String base = slug.toString();
        int repeats = seen.merge(base, 1, Integer::sum) - 1;
        return repeats == 0 ? base : base + "-" + repeats;
    }

    /** The properties the reference's tables list in their first column, without list indexes and map keys. */
    static Set<String> documentedProperties(String markdown) {
        var documented = new TreeSet<String>();
        for (String line : markdown.split("\n")) {
            if (!line.startsWith("| `spillover.")) {
                continue;
            }
            String firstCell = line.substring(1, line.indexOf('|', 1));
            Matcher property = PROPERTY.matcher(firstCell);
            while (property.find()) {
                String name = property.group(1);
                int cut = name.length();
                for (String mark : List.of("[", ".<")) {
                    int at = name.indexOf(mark);
                    if (at >= 0) {
                        cut = Math.min(cut, at);
                    }
                }
                documented.add(name.substring(0, cut));
            }
        }
        return documented;
    }
}
