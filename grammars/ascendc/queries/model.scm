; Nodes the document model extracts (server/ascendc_lsp/syntax/model.py).
; Captures are processed in byte order; one pattern per construct.
(function_definition) @function
(class_specifier body: (field_declaration_list)) @class
(struct_specifier body: (field_declaration_list)) @class
(call_expression) @call
(declaration) @declaration
(field_declaration) @declaration
(preproc_def name: (identifier) @define.name) @define
(preproc_include path: (_) @include.path) @include
(using_declaration) @using
(alias_declaration) @alias
(type_definition) @alias
(for_statement) @loop
(while_statement) @loop
(do_statement) @loop
(for_range_loop) @loop
(template_declaration) @template
