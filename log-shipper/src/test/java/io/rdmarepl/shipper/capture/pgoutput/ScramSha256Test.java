package io.rdmarepl.shipper.capture.pgoutput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** SCRAM-SHA-256 against RFC 7677 section 3's exchange, and the ways a server can get it wrong. */
class ScramSha256Test {
    private static final String CLIENT_NONCE = "rOprNGfwEbeRWgbNEkqO";
    private static final String SERVER_FIRST =
        "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
    private static final String CLIENT_FINAL =
        "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
    private static final String SERVER_FINAL = "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";

    @Test
    void shouldProduceTheRfc7677Exchange() {
        ScramSha256 scram = ScramSha256.withNonce("user", "pencil", CLIENT_NONCE);

        assertThat(scram.clientFirstMessage()).isEqualTo("n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
        assertThat(scram.clientFinalMessage(SERVER_FIRST)).isEqualTo(CLIENT_FINAL);
        scram.verifyServerFinal(SERVER_FINAL);
    }

    @Test
    void shouldSendAnEmptyUserNameAndAFreshNonceToPostgres() {
        String first = ScramSha256.forPostgres("pencil").clientFirstMessage();
        String other = ScramSha256.forPostgres("pencil").clientFirstMessage();

        assertThat(first).startsWith("n,,n=,r=").hasSize("n,,n=,r=".length() + 24);
        assertThat(other).isNotEqualTo(first);
    }

    @Test
    void shouldRejectAServerSignatureTheWrongPasswordGives() {
        ScramSha256 scram = ScramSha256.withNonce("user", "not pencil", CLIENT_NONCE);
        scram.clientFinalMessage(SERVER_FIRST);

        assertThatThrownBy(() -> scram.verifyServerFinal(SERVER_FINAL))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("signature is wrong");
    }

    @Test
    void shouldRejectANonceTheServerDidNotExtend() {
        ScramSha256 scram = ScramSha256.withNonce("user", "pencil", CLIENT_NONCE);

        assertThatThrownBy(() -> scram.clientFinalMessage("r=someoneElsesNonce,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"))
            .hasMessageContaining("nonce");
        assertThatThrownBy(() -> scram.clientFinalMessage("r=" + CLIENT_NONCE + ",s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"))
            .hasMessageContaining("nonce");
    }

    @Test
    void shouldRejectMalformedServerMessages() {
        ScramSha256 scram = ScramSha256.withNonce("user", "pencil", CLIENT_NONCE);

        assertThatThrownBy(() -> scram.clientFinalMessage("r=" + CLIENT_NONCE + "x,s=W22Z,i=0"))
            .hasMessageContaining("iteration count must be positive");
        assertThatThrownBy(() -> scram.clientFinalMessage("r=" + CLIENT_NONCE + "x,i=4096"))
            .hasMessageContaining("attribute 's' missing");
        assertThatThrownBy(() -> scram.verifyServerFinal(SERVER_FINAL))
            .hasMessageContaining("before server-first");
        scram.clientFinalMessage(SERVER_FIRST);
        assertThatThrownBy(() -> scram.verifyServerFinal("e=invalid-proof"))
            .hasMessageContaining("invalid-proof");
    }

    @Test
    void shouldEscapeCommaAndEqualsInTheUserName() {
        assertThat(ScramSha256.withNonce("a=b,c", "pencil", "n").clientFirstMessage()).isEqualTo("n,,n=a=3Db=2Cc,r=n");
    }
}
