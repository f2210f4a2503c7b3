package io.rdmarepl.shipper.capture.pgoutput;

/**
 * The name of a type by its OID, as the Relation record's column type name: castable SQL, e.g. {@code int4},
 * {@code varchar}, {@code timestamptz}, {@code int4[]} or {@code "my schema".mood}. pgoutput's Relation message
 * carries type OIDs only; its Type messages name the types that are not built in, and the decoder uses those.
 * This lookup covers the rest (in practice the built-in types, whose names the decoder then keeps).
 *
 * <p>Control path: called only while a Relation message is decoded, on the decoding thread; it may block
 * (the shipper backs it with a catalog query). A failure (exception, or null) stops decoding with an error naming
 * the relation, column and type OID.
 */
@FunctionalInterface
public interface TypeNames {
    /** The name of type {@code typeOid}; never null for a type that exists. */
    String typeName(int typeOid);
}
