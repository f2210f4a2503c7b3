package io.rdmarepl.format.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CopyTextRowTest {
    private final CopyTextRow row = new CopyTextRow();

    private List<String> fields(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        row.parse(bytes, bytes.length);
        List<String> out = new ArrayList<>();
        for (int f = 0; f < row.fields(); f++) {
            out.add(row.isNull(f) ? null : new String(row.text(), row.start(f), row.end(f) - row.start(f), StandardCharsets.UTF_8));
        }
        return out;
    }

    @Test
    void shouldSplitOnTabsAndDropTheNewline() {
        assertThat(fields("1\tab\t\n")).containsExactly("1", "ab", "");
    }

    @Test
    void shouldReadBackslashNAloneAsNullAndAnywhereElseAsTheLetter() {
        assertThat(fields("\\N\t\\Nx\tx\\N\t\\\\N\n")).containsExactly(null, "Nx", "xN", "\\N");
    }

    @Test
    void shouldUnescapeEveryEscapeCopyWrites() {
        assertThat(fields("a\\tb\\nc\\rd\\\\e\\bf\\fg\\vh\n")).containsExactly("a\tb\nc\rd\\e\bf\fg\u000bh");
        assertThat(fields("\\101\\x42\\x4a\\7\\q\n")).containsExactly("ABJ\u0007q");
    }

    @Test
    void shouldKeepMultiByteUtf8Intact() {
        assertThat(fields("日本\t🚀\n")).containsExactly("日本", "🚀");
    }

    @Test
    void shouldReuseItsArraysForWideRows() {
        assertThat(fields("1\t2\t3\t4\t5\t6\t7\t8\t9\t10\t11\t12\t13\t14\t15\t16\t17\t18\n")).hasSize(18).endsWith("18");
        assertThat(fields("x\n")).containsExactly("x");
    }

    @Test
    void shouldRefuseALoneBackslashAtTheEnd() {
        byte[] bad = "a\\".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> row.parse(bad, bad.length)).hasMessageContaining("lone backslash");
    }
}
